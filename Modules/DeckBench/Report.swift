import DeckModel
import Foundation

/// The table on standard output and results.json.
package enum Report {
    /// The figures as an aligned text table, then the notes.
    package static func table(_ figures: [Figure], machine: Machine, quick: Bool, seconds: Double) -> String {
        var rows: [[String]] = [["figure", "median", "p99", "compared with", "its median", "its p99", "ratio", "p99 ratio", "target", ""]]
        var notes: [String] = []
        for figure in figures {
            guard let value = figure.value else {
                rows.append([figure.title, "—", "—", "", "", "", "", "", figure.target ?? "", figure.verdict?.rawValue ?? ""])
                if let note = figure.note { notes.append("\(figure.title): \(note)") }
                continue
            }
            let unit = figure.unit
            rows.append([
                figure.title,
                format(value.median, unit),
                value.p99.map { format($0, unit) + (value.p99IsMaximum ? "*" : "") } ?? "",
                figure.baselineLabel ?? "",
                figure.baseline.map { format($0.median, unit) } ?? "",
                figure.baseline.flatMap { base in base.p99.map { format($0, unit) + (base.p99IsMaximum ? "*" : "") } } ?? "",
                figure.medianRatio.map(ratio) ?? "",
                figure.p99Ratio.map(ratio) ?? "",
                figure.target ?? "",
                figure.verdict?.rawValue ?? "",
            ])
            if let note = figure.note { notes.append("\(figure.title): \(note)") }
        }
        var widths = Array(repeating: 0, count: rows[0].count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        var out = "deck-bench\(quick ? " --quick (few repetitions: figures are NOT stable)" : "")"
            + String(format: ", %.0f s\n", seconds)
        out += "machine: \(machine.cpu), \(machine.cores) cores, \(machine.memory), \(machine.kernel); disk: \(machine.filesystem)\n\n"
        for (number, row) in rows.enumerated() {
            out += row.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 || index == 3 || index == 8 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n"
            if number == 0 { out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
        }
        out += "\nratio = figure ÷ what it is compared with (for rates: figure ÷ reference, higher is better); "
            + "p99 ratio compares the two 99th percentiles. * = fewer than 100 samples: the largest one.\n"
        for note in notes { out += "- \(note)\n" }
        return out
    }

    /// results.json: the machine and every figure with its raw statistics.
    package static func json(_ figures: [Figure], machine: Machine, quick: Bool, seconds: Double, date: Date) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("format", "deck-bench")
        writer.field("version", 1)
        writer.field("date", ISO8601DateFormatter().string(from: date))
        writer.field("quick", quick)
        writer.field("seconds", seconds)
        writer.key("machine")
        writer.beginObject()
        writer.field("cpu", machine.cpu)
        writer.field("cores", machine.cores)
        writer.field("memory", machine.memory)
        writer.field("kernel", machine.kernel)
        writer.field("filesystem", machine.filesystem)
        writer.endObject()
        writer.field("figures", figures) { writer, figure in
            writer.beginObject()
            writer.field("id", figure.id)
            writer.field("title", figure.title)
            writer.field("unit", figure.unit)
            value(&writer, "value", figure.value)
            writer.field("comparedWith", figure.baselineLabel)
            value(&writer, "baseline", figure.baseline)
            if let ratio = figure.medianRatio { writer.field("ratio", ratio) }
            if let ratio = figure.p99Ratio { writer.field("p99Ratio", ratio) }
            writer.field("higherIsBetter", figure.higherIsBetter)
            writer.field("target", figure.target)
            writer.field("verdict", figure.verdict?.rawValue)
            writer.field("note", figure.note)
            writer.endObject()
        }
        writer.endObject()
        return writer.line()
    }

    private static func value(_ writer: inout JSONWriter, _ key: StaticString, _ value: Figure.Value?) {
        guard let value else { return }
        writer.key(key)
        writer.beginObject()
        writer.field("median", value.median)
        if let p99 = value.p99 { writer.field("p99", p99) }
        writer.field("count", value.count)
        writer.endObject()
    }

    /// A figure with enough digits to read, few enough to trust.
    static func format(_ value: Double, _ unit: String) -> String {
        let digits = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : 3
        return String(format: "%.\(digits)f", value) + (unit.isEmpty ? "" : " " + unit)
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
}
