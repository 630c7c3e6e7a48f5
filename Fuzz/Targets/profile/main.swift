// The profile fuzz target (docs/reliability.md); its property is FuzzTarget.profile's.
import DeckFuzz
import DeckFuzzDriver
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's per-input callback. Also exported under its C name, which
/// libFuzzer's own main (linked in, unused) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.profile.fuzzOne(data, size)
}

exit(runLibFuzzer(fuzzOne))
