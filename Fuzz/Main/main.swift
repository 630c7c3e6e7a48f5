// deck-fuzz TARGET [libFuzzer options] [CORPUS…] — one libFuzzer binary for
// every FuzzTarget (docs/reliability.md): one build instead of six.
import DeckFuzzDriver
#if canImport(Glibc)
import Glibc
#endif

exit(FuzzDriver.main())
