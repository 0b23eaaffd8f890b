import Synchronization

/// The art a decode is asked to render as well (`ImageDecoder.decode(…,
/// art:)`): the cells the picture fills and the options it is drawn in.
public struct ArtPlan: Sendable {
    public var columns: Int
    public var rows: Int
    public var options: RenderOptions
    /// No row is rendered while the decode goes on until this is open
    /// (the rest are rendered when it ends).
    public var waitsFor: ArtGate?

    public init(columns: Int, rows: Int, options: RenderOptions, waitsFor: ArtGate? = nil) {
        self.columns = columns
        self.rows = rows
        self.options = options
        self.waitsFor = waitsFor
    }

    /// The pixmap it is rendered from with no resampling: a sub-cell a pixel.
    var pixmapSize: PixelSize { Renderer.pixmapSize(columns: columns, rows: rows, symbols: options.symbols) }
}

/// Holds back the art made beside a decode until it is opened. The
/// screen's launch opens it once the terminal is set up: before that, the
/// two cores are busy with ncurses' start-up and tmux's answers, and rows
/// of art would take the decoder's core (the launch's first frame came
/// 1.7 ms later with them, 101 rounds in turns).
public final class ArtGate: Sendable {
    private let isOpen = Atomic<Bool>(false)

    public init() {}

    public func open() { isOpen.store(true, ordering: .releasing) }

    public var opened: Bool { isOpen.load(ordering: .acquiring) }
}

/// Art rendered with its decode: the cells `Renderer.render` makes of the
/// decoded pixmap at `plan`'s size and options.
public struct PlannedArt: Sendable {
    public let plan: ArtPlan
    public let grid: CellGrid

    public init(plan: ArtPlan, grid: CellGrid) {
        self.plan = plan
        self.grid = grid
    }
}

/// The art of a pixmap still being filtered, a row of cells at a time as
/// the rows under it are finished.
///
/// A decode on two threads (`RowPipeline`) leaves the filtering thread
/// waiting for the decoder most of the time: libjpeg takes 9 ms of a
/// 1808×1808 JPEG, the filtering 2. The art, about 3 ms more, is made in
/// those waits, so that it is ready when the last row is.
struct ArtInProgress {
    let plan: ArtPlan
    private var quantizer: Quantizer
    private var cells: [Cell] = []
    private var rowsDone = 0

    /// Nil unless the decode makes the plan's pixmap itself (a larger
    /// one is resampled first, by `Renderer.render`).
    init?(_ plan: ArtPlan, pixmap: PixelSize) {
        guard plan.columns > 0, plan.rows > 0, pixmap == plan.pixmapSize else { return nil }
        self.plan = plan
        quantizer = Quantizer(mode: plan.options.colors, dither: plan.options.dither, columns: plan.columns)
        cells.reserveCapacity(plan.columns * plan.rows)
    }

    /// Renders the next row of cells if `resampler` has finished the
    /// pixmap rows under it; whether it did.
    mutating func advance(_ resampler: BoxResampler) -> Bool {
        let subRows = plan.options.symbols.grid.rows
        guard rowsDone < plan.rows, plan.waitsFor?.opened ?? true,
            resampler.finishedRows >= (rowsDone + 1) * subRows
        else { return false }
        let row = rowsDone..<rowsDone + 1
        cells += resampler.withOutput { values in
            Renderer.renderRows(
                row,
                of: values,
                width: resampler.width,
                columns: plan.columns,
                options: plan.options,
                quantizer: &quantizer
            )
        }
        rowsDone += 1
        return true
    }

    /// The whole grid, its remaining rows rendered from the finished
    /// `pixmap` (on two cores when they may be). Rows that came out of
    /// order may have added to rows rendered early: all are rendered again.
    mutating func finish(_ pixmap: Pixmap, rowsInOrder: Bool) -> PlannedArt {
        let (columns, rows, options) = (plan.columns, plan.rows, plan.options)
        guard rowsInOrder else {
            return PlannedArt(plan: plan, grid: Renderer.render(pixmap, columns: columns, rows: rows, options: options))
        }
        if quantizer.dither == .diffusion {
            // The error goes on from the last row rendered, on one thread.
            cells += pixmap.values.withUnsafeBufferPointer { values in
                Renderer.renderRows(
                    rowsDone..<rows,
                    of: values,
                    width: pixmap.width,
                    columns: columns,
                    options: options,
                    quantizer: &quantizer
                )
            }
        } else {
            cells += Renderer.cells(rowsDone..<rows, of: pixmap, columns: columns, options: options)
        }
        return PlannedArt(plan: plan, grid: CellGrid(columns: columns, rows: rows, cells: cells))
    }
}
