// PlumometerLinuxTests
