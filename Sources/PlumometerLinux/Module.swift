// PlumometerLinux: see Package.swift for this target's role.
