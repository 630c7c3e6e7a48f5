// Only built with DECK_FUZZ=1 and -sanitize=fuzzer (Package.swift), which links libFuzzer.
import DeckFuzz

/// libFuzzer's entry for programs that have their own main.
///
/// Forced by SwiftPM: an executable target's top-level code becomes
/// `<Module>_main` and is linked as `main`, which takes the place of
/// libFuzzer's own main, so the program has to start libFuzzer itself.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// libFuzzer's per-input callback. Also exported under its C name, which
/// libFuzzer's own main (linked in, never run) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // The target is checked in main before libFuzzer starts.
    FuzzDriver.target?.fuzzOne(data, size) ?? 0
}

/// Runs the target named by the first argument under libFuzzer.
public enum FuzzDriver {
    /// The target the first argument names. A static so that the C callback,
    /// which cannot carry context, reaches it.
    static let target = CommandLine.arguments.dropFirst().first.flatMap(FuzzTarget.init(rawValue:))

    /// Runs libFuzzer with the other arguments (`-max_total_time=60 CORPUS`…)
    /// and returns its exit status; 64 and a usage line for no known target.
    public static func main() -> Int32 {
        guard target != nil else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            print("usage: deck-fuzz \(names) [libFuzzer options] [CORPUS…]")
            return 64
        }
        // libFuzzer reads its options from argv[1...]: the target's name goes.
        var argc = CommandLine.argc - 1
        let argv = CommandLine.unsafeArgv
        argv[1] = argv[0]
        var shifted = argv + 1
        return LLVMFuzzerRunDriver(&argc, &shifted, fuzzOne)
    }
}
