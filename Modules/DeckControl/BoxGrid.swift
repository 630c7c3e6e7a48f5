/// A grid of boxes drawn with box-drawing characters: `count` cells in rows
/// of `columns`, the last row possibly shorter, each cell `width` columns
/// inside, with a title in the border above it (the slot number) and
/// lines of text inside. Text is padded by display width, so wide
/// characters keep the borders straight.
struct BoxGrid {
    let columns: Int
    let count: Int
    /// Columns inside a cell, between its two borders.
    let width: Int
    /// Lines inside a cell, so that empty cells keep their size.
    let height: Int

    private var rows: Int { (count + columns - 1) / columns }

    private func exists(row: Int, column: Int) -> Bool {
        row >= 0 && row < rows && column >= 0 && column < columns && row * columns + column < count
    }

    /// The grid's lines. `title(i)` goes into the border above cell `i`;
    /// `content(i)` is the cell's lines, each already cut to fit `width - 2`
    /// (one space of margin on each side); lines beyond ``height`` are not drawn.
    func draw(title: (Int) -> String, content: (Int) -> [String]) -> [String] {
        let contents = (0..<count).map(content)
        var lines: [String] = []
        for row in 0...rows {
            lines.append(border(above: row, title: title))
            guard row < rows else { break }
            for line in 0..<height {
                var text = ""
                for column in 0...columns {
                    let edge = exists(row: row, column: column - 1) || exists(row: row, column: column)
                    text += edge ? "│" : " "
                    guard column < columns else { break }
                    let cell = contents.indices.contains(row * columns + column) && exists(row: row, column: column)
                        ? contents[row * columns + column] : nil
                    let body = cell.map { $0.indices.contains(line) ? $0[line] : "" }
                    text += body.map { " " + DisplayWidth.pad($0, to: width - 2) + " " } ?? String(repeating: " ", count: width)
                }
                lines.append(trimmed(text))
            }
        }
        return lines
    }

    /// The horizontal line above `row` (below the last row when `row == rows`).
    private func border(above row: Int, title: (Int) -> String) -> String {
        var text = ""
        for column in 0...columns {
            let left = exists(row: row - 1, column: column - 1) || exists(row: row, column: column - 1)
            let right = exists(row: row - 1, column: column) || exists(row: row, column: column)
            let up = exists(row: row - 1, column: column - 1) || exists(row: row - 1, column: column)
            let down = exists(row: row, column: column - 1) || exists(row: row, column: column)
            text.append(Self.junction(up: up, down: down, left: left, right: right))
            guard column < columns else { break }
            guard right else {
                text += String(repeating: " ", count: width)
                continue
            }
            let label = exists(row: row, column: column) ? "─ \(title(row * columns + column)) " : ""
            text += label + String(repeating: "─", count: max(0, width - label.count))
        }
        return trimmed(text)
    }

    /// The box-drawing character where lines meet from these directions.
    static func junction(up: Bool, down: Bool, left: Bool, right: Bool) -> Character {
        switch (up, down, left, right) {
        case (false, true, false, true): "┌"
        case (false, true, true, false): "┐"
        case (true, false, false, true): "└"
        case (true, false, true, false): "┘"
        case (true, true, false, true): "├"
        case (true, true, true, false): "┤"
        case (false, true, true, true): "┬"
        case (true, false, true, true): "┴"
        case (true, true, true, true): "┼"
        case (_, _, true, _), (_, _, _, true): "─"
        case (true, _, _, _), (_, true, _, _): "│"
        default: " "
        }
    }

    private func trimmed(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }
}
