// The bridge probe: prints what the Linux bridge decodes, for the umockdev tests.
