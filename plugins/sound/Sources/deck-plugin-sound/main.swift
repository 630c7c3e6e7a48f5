// The `sound` plugin (plugins/sound): mute and volume buttons over libpulse.
import DeckPluginKit
import SoundPlugin
#if canImport(Glibc)
import Glibc
#endif

let sound = SoundPlugin()
let ending = PluginMain.run { event, plugin in sound.handle(event, plugin) }
sound.stop()
exit(ending.exitStatus)
