// PlumometerCoreTests
