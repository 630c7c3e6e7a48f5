// deckctl: the local control CLI (CLI.md). The logic lives in DeckControl.
import DeckControl

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(Deckctl.run(Array(CommandLine.arguments.dropFirst())))
