import Glibc
import DeckBench

// deck-bench: `make bench`. Thin main over DeckBench (see docs/performance.md).
exit(BenchCommand.main(Array(CommandLine.arguments.dropFirst())))
