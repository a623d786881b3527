// PlumometerRecordingTests
