/// Pixels as a terminal is sent them: 8-bit sRGB, RGB, row-major, at the
/// exact size they are shown, so that the terminal never rescales.
public struct PixelImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// width × height × 3 bytes.
    public var rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3, "pixel image size mismatch")
        self.width = width
        self.height = height
        self.rgb = rgb
    }
}

extension Pixmap {
    /// The pixmap in sRGB bytes, each value rounded to the nearest level.
    public func pixelImage() -> PixelImage {
        // Through the table's buffer: each value's lookup through the
        // static array paid its lazy start and a bounds check (an
        // animation converts every frame it keeps).
        let rgb = ColorSpace.encodeTable.withUnsafeBufferPointer { table in
            values.withUnsafeBufferPointer { source in
                [UInt8](unsafeUninitializedCapacity: source.count) { out, count in
                    for i in 0..<source.count { out[i] = table[ColorSpace.encodeIndex(source[i])] }
                    count = source.count
                }
            }
        }
        return PixelImage(width: width, height: height, rgb: rgb)
    }
}

extension PixelImage {
    /// Back in linear light (exact: each byte survives the round trip).
    public func pixmap() -> Pixmap {
        let values = ColorSpace.toLinear.withUnsafeBufferPointer { table in
            rgb.withUnsafeBufferPointer { bytes in
                [Float](unsafeUninitializedCapacity: bytes.count) { out, count in
                    for i in 0..<bytes.count { out[i] = table[Int(bytes[i])] }
                    count = bytes.count
                }
            }
        }
        return Pixmap(width: width, height: height, values: values)
    }

    /// A rectangle of the picture (clamped to it, at least one pixel).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> PixelImage {
        guard let cut = cropRGB(rgb, width: width, height: height, x: x, y: y, w: w, h: h) else { return self }
        return PixelImage(width: cut.width, height: cut.height, rgb: cut.values)
    }
}

/// Where a picture of pixels goes inside a box of cells.
public struct PixelPlacement: Sendable, Hashable {
    /// The picture's size in pixels.
    public var width: Int, height: Int
    /// The cells it covers, and the first of them from the box's top-left.
    public var columns: Int, rows: Int
    public var columnOffset: Int, rowOffset: Int

    /// The largest picture of a `imageWidth` × `imageHeight` image that fits
    /// `columns` × `rows` cells of `cellWidth` × `cellHeight` pixels, aspect
    /// kept, centred on whole cells when `centred` (as the screen shows art),
    /// else at the top-left (as `render` prints).
    public static func fit(
        imageWidth: Int,
        imageHeight: Int,
        columns: Int,
        rows: Int,
        cellWidth: Int,
        cellHeight: Int,
        centred: Bool
    ) -> PixelPlacement {
        let boxWidth = max(1, columns * cellWidth)
        let boxHeight = max(1, rows * cellHeight)
        let w = max(1, imageWidth)
        let h = max(1, imageHeight)
        var width: Int
        var height: Int
        if w * boxHeight >= h * boxWidth {
            width = boxWidth
            height = max(1, min(boxHeight, Int((Double(h) * Double(boxWidth) / Double(w)).rounded())))
        } else {
            height = boxHeight
            width = max(1, min(boxWidth, Int((Double(w) * Double(boxHeight) / Double(h)).rounded())))
        }
        let usedColumns = min(columns, (width + cellWidth - 1) / max(1, cellWidth))
        let usedRows = min(rows, (height + cellHeight - 1) / max(1, cellHeight))
        return PixelPlacement(
            width: width,
            height: height,
            columns: max(1, usedColumns),
            rows: max(1, usedRows),
            columnOffset: centred ? (columns - usedColumns) / 2 : 0,
            rowOffset: centred ? (rows - usedRows) / 2 : 0
        )
    }
}
