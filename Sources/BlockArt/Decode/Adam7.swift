/// PNG's Adam7 interlacing: seven passes over sub-lattices of the image.
enum Adam7 {
    /// Each pass's first column and row and its steps across and down.
    static let passes: [(xStart: Int, yStart: Int, xStep: Int, yStep: Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// The rows, in order, that the passes deliver for a width × height
    /// image (passes with no pixels are skipped, as libpng skips them).
    static func placements(width: Int, height: Int) -> [RowPlacement] {
        var result: [RowPlacement] = []
        for pass in passes {
            let columns = width > pass.xStart ? (width - pass.xStart + pass.xStep - 1) / pass.xStep : 0
            let rows = height > pass.yStart ? (height - pass.yStart + pass.yStep - 1) / pass.yStep : 0
            guard columns > 0 else { continue }
            for j in 0..<rows {
                result.append(
                    RowPlacement(
                        y: pass.yStart + j * pass.yStep,
                        xStart: pass.xStart,
                        xStep: pass.xStep,
                        count: columns
                    )
                )
            }
        }
        return result
    }
}
