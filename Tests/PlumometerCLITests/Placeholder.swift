// PlumometerCLITests
