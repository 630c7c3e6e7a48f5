import DeckPlugins
import DeckProfiles
import DeckProtocol

/// Plugin buttons' settings against their plugins' declarations
/// (docs/plugins.md, "Settings declarations"). A bad setting is reported,
/// never refused: the profile loads and every other button works, as with a
/// button whose plugin is not installed; the plugin itself shows the bad
/// setting on its button when pressed.
extension HostCore {
    /// Every settings problem of the profile files read, for `status`.
    var settingsProblems: [Problem] {
        (inputs.plugins?.catalog.settingsProblems(in: catalog) ?? []).map(problem)
    }

    /// Logs the settings problems of `files` (file names in the layouts
    /// folder; nil: every file) as warnings, as other problems of a load are.
    func logSettingsProblems(of files: [String]? = nil) {
        guard let plugins = inputs.plugins?.catalog else { return }
        let sites = catalog.files.filter { files?.contains($0.fingerprint.file) ?? true }.flatMap(\.settingsSites)
        for problem in plugins.settingsProblems(sites) {
            perform(HostAction.log(.warning, "\(problem) (the profile loads; this button's plugin gets the setting as written)"))
        }
    }
}
