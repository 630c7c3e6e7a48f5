// The `keys` plugin (plugins/keys): hotkeys and typed text (docs/plugins.md).
#if canImport(Glibc)
import Glibc
#endif
import KeysPlugin

exit(KeysPluginMain.run())
