import PlumometerCLI

CommandLineTool.main()
