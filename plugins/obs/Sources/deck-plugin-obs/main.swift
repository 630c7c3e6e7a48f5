// The `obs` plugin (plugins/obs): OBS Studio over obs-websocket v5. The logic is ObsPlugin's.
#if canImport(Glibc)
import Glibc
#endif
import ObsPlugin

exit(ObsPlugin.run())
