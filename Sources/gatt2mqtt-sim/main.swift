// Entry point: the command line decides which peripheral to simulate (see SimulatorCommand).
// The signal mask is fixed here, on the main thread, before anything else runs.
SignalMask.unblockTerminationSignals()
await SimulatorCommand.parseAndRun()
