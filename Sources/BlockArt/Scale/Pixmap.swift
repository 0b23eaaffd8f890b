import Synchronization

/// Pixels in linear light, RGB, row-major: what the decoders produce and the
/// renderer reads. Transparency is already composited over the background.
public struct Pixmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// width × height × 3 linear values in 0...1.
    public var values: [Float] {
        didSet { identity = .next() }
    }
    /// Tells these pixels from any others without reading them: what the
    /// screen keeps their art and pictures under.
    public private(set) var identity = Identity.next()

    /// A number no other pixmap made in this process has. A copy keeps
    /// it; a change of the values gets a new one.
    public struct Identity: Hashable, Sendable {
        let number: UInt64

        static func next() -> Identity { Identity(number: made.add(1, ordering: .relaxed).newValue) }
    }

    /// Equal pixels, whatever their identities.
    public static func == (a: Pixmap, b: Pixmap) -> Bool {
        a.width == b.width && a.height == b.height && a.values == b.values
    }

    public init(width: Int, height: Int, values: [Float]) {
        precondition(values.count == width * height * 3, "pixmap size mismatch")
        self.width = width
        self.height = height
        self.values = values
    }

    public init(width: Int, height: Int, fill: LinearRGB = LinearRGB(0, 0, 0)) {
        self.width = width
        self.height = height
        var values = [Float](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: values.count, by: 3) {
            values[i] = fill.r
            values[i + 1] = fill.g
            values[i + 2] = fill.b
        }
        self.values = values
    }

    /// The pixel at (x, y).
    public subscript(x: Int, y: Int) -> LinearRGB {
        let i = (y * width + x) * 3
        return LinearRGB(values[i], values[i + 1], values[i + 2])
    }

    /// This pixmap box-filtered (in linear light) to a new size, each new
    /// pixel the mean of `samples` raster pixels (see `BoxResampler`).
    public func resampled(width newWidth: Int, height newHeight: Int, samples: (x: Int, y: Int) = (1, 1)) -> Pixmap {
        if newWidth == width && newHeight == height { return self }
        var resampler = BoxResampler(
            sourceWidth: width,
            sourceHeight: height,
            width: newWidth,
            height: newHeight,
            samples: samples
        )
        values.withUnsafeBufferPointer { all in
            for y in 0..<height {
                resampler.push(UnsafeBufferPointer(rebasing: all[(y * width * 3)..<((y + 1) * width * 3)]))
            }
        }
        return resampler.finish()
    }

    /// A rectangle of the pixmap (clamped to it, at least one pixel).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Pixmap {
        guard let cut = cropRGB(values, width: width, height: height, x: x, y: y, w: w, h: h) else { return self }
        return Pixmap(width: cut.width, height: cut.height, values: cut.values)
    }

    /// The pixmap turned as an EXIF Orientation value (1–8) says, so that
    /// the picture stands as the camera saw it.
    public func oriented(_ orientation: Int) -> Pixmap {
        guard (2...8).contains(orientation) else { return self }
        let transposed = orientation >= 5
        let w = transposed ? height : width
        let h = transposed ? width : height
        var out = [Float](repeating: 0, count: values.count)
        for y in 0..<h {
            for x in 0..<w {
                // (sx, sy): where this output pixel comes from in the stored image.
                let (sx, sy): (Int, Int)
                switch orientation {
                case 2: (sx, sy) = (width - 1 - x, y)
                case 3: (sx, sy) = (width - 1 - x, height - 1 - y)
                case 4: (sx, sy) = (x, height - 1 - y)
                case 5: (sx, sy) = (y, x)
                case 6: (sx, sy) = (y, height - 1 - x)
                case 7: (sx, sy) = (width - 1 - y, height - 1 - x)
                default: (sx, sy) = (width - 1 - y, x)
                }
                let s = (sy * width + sx) * 3
                let d = (y * w + x) * 3
                out[d] = values[s]
                out[d + 1] = values[s + 1]
                out[d + 2] = values[s + 2]
            }
        }
        return Pixmap(width: w, height: h, values: out)
    }
}

/// The rectangle of an RGB raster's values (clamped to it, at least one
/// pixel): a pixmap's or a picture's crop. nil: the whole raster.
func cropRGB<T>(
    _ values: [T],
    width: Int,
    height: Int,
    x: Int,
    y: Int,
    w: Int,
    h: Int
) -> (values: [T], width: Int, height: Int)? {
    let x0 = max(0, min(width - 1, x))
    let y0 = max(0, min(height - 1, y))
    let cw = max(1, min(width - x0, w))
    let ch = max(1, min(height - y0, h))
    if x0 == 0 && y0 == 0 && cw == width && ch == height { return nil }
    var out = [T]()
    out.reserveCapacity(cw * ch * 3)
    for row in y0..<(y0 + ch) {
        let start = (row * width + x0) * 3
        out.append(contentsOf: values[start..<(start + cw * 3)])
    }
    return (out, cw, ch)
}

/// How many pixmaps have been made: the source of their identities.
private let made = Atomic<UInt64>(0)
