// deck-gestures: replays and checks gesture and deck traces (GESTURES.md §3).
// The logic lives in DeckGestureTraces; this only wires it to the process.
import DeckGestureTraces
import Foundation

let result = TraceTool.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.output.utf8))
FileHandle.standardError.write(Data(result.errors.utf8))
exit(result.status)
