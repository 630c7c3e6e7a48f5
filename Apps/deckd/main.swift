// deckd, the host daemon: everything is in DeckHost (CLI.md, docs/host.md).
import DeckHost
import Glibc

exit(Deckd.main())
