// The discovery probe: lists and follows devices through the bridge's discovery, for the umockdev tests.
