internal import CQRencode

/// A QR code as libqrencode makes it: `size` × `size` modules, true for dark.
struct QRMatrix: Equatable {
    let size: Int
    let dark: [Bool]

    /// The code for `text` (8-bit mode, error correction M: a link scanned off
    /// a screen survives some glare); nil if libqrencode cannot encode it.
    init?(_ text: String) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        // Bit 0 of each byte is the module's colour (qrencode.h).
        dark = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }

    subscript(row: Int, column: Int) -> Bool {
        row >= 0 && column >= 0 && row < size && column < size && dark[row * size + column]
    }
}

/// Draws a QR code in a terminal with half-block characters: each character
/// cell holds two modules, one above the other, so the code stays square in
/// a terminal font (cells are about twice as tall as wide) and small enough
/// to scan from a phone held to the screen. As `qrencode -t UTF8` does, the
/// light modules and the quiet zone are the drawn ones: a terminal is usually
/// light text on a dark background, and a scanner wants dark modules on light.
enum TerminalQR {
    /// The quiet zone around the code, in modules (the standard asks for 4; 2
    /// is what scanners need in practice and keeps the code small).
    static let quietZone = 2

    static func lines(for matrix: QRMatrix) -> [String] {
        let span = -quietZone..<(matrix.size + quietZone)
        var lines: [String] = []
        for top in stride(from: span.lowerBound, to: span.upperBound, by: 2) {
            var line = ""
            for column in span {
                // Outside the code is light: an odd number of rows ends on a quiet half row.
                let upperLight = !matrix[top, column]
                let lowerLight = !matrix[top + 1, column]
                switch (upperLight, lowerLight) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines
    }
}
