// The `media` plugin (plugins/media): MPRIS over the session bus. Logic in MediaPlugin.
import Glibc
import MediaPlugin

exit(MediaPlugin.run())
