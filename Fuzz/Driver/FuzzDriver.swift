// Only built with DECK_FUZZ=1 and -sanitize=fuzzer (Package.swift), which links libFuzzer.

/// libFuzzer's entry for programs that have their own main.
///
/// Forced by SwiftPM: an executable target's top-level code becomes
/// `<Module>_main` and is linked as `main`, which takes the place of
/// libFuzzer's own main, so the target's main has to start libFuzzer itself.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Runs libFuzzer with this process's arguments (`-max_total_time=60 CORPUS`…)
/// over `callback`, and returns its exit status.
public func runLibFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
}
