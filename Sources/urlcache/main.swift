import ArgumentParser

// The executable only parses arguments and wires the parts together.
URLCacheCommand.main()
