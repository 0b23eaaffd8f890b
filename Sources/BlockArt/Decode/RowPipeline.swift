import FoundationEssentials
import URLCacheSupport

/// Decoding on two cores: a producer thread runs the decoder (libpng's
/// inflate and unfilter, libjpeg's entropy decoding and IDCT: the costly
/// half) into a small ring of row batches,
/// while the calling thread turns the batches into linear light and
/// box-filters them. Memory is the ring, a few rows' worth, whatever the
/// image's size; the rows reach the consumer in the decoder's order.
///
/// `@unchecked Sendable`: the ring (raw memory) and the row source (a C
/// decoder behind a pointer) are shared by the two threads, but each batch
/// and the source are used by one thread at a time, handed over under
/// `condition`: a batch belongs to the producer until `produced` counts it,
/// then to the consumer until `consumed` does; the source belongs to the
/// producer until `producerDone`.
final class RowPipeline: @unchecked Sendable {
    /// Rows per batch, and batches in the ring: enough for either side to
    /// run ahead through a burst of slow rows.
    static let batchRows = 16
    static let batchCount = 4
    /// Below this many rows a second thread costs more than it saves.
    static let minimumRows = 256

    /// Not owned: the caller holds the source, and `run` returns only once
    /// the producer is done with it. Were it owned here, the producer
    /// thread's last release of the pipeline could be the source's last
    /// too, closing it (and stopping a TIFF's band decoder, which reads the
    /// caller's FILE) after the caller had closed that FILE.
    private unowned(unsafe) let source: RowSource
    private let rowBytes: Int
    private let bytes: UnsafeMutablePointer<UInt8>
    private let places: UnsafeMutablePointer<RowPlacement>
    /// Rows in each batch.
    private let rowsIn: UnsafeMutablePointer<Int>
    /// The error that ended the decoding, if any (guarded by `condition`).
    private var failure: DecodeError?

    private let condition = Condition()
    // Guarded by `condition`.
    private var produced = 0
    private var consumed = 0
    private var producerDone = false
    private var abandoned = false

    init(source: RowSource) {
        self.source = source
        rowBytes = source.width * source.channels
        let rows = RowPipeline.batchRows * RowPipeline.batchCount
        bytes = .allocate(capacity: max(1, rowBytes * rows))
        places = .allocate(capacity: rows)
        places.initialize(repeating: RowPlacement(y: 0, count: 0), count: rows)
        rowsIn = .allocate(capacity: RowPipeline.batchCount)
        rowsIn.initialize(repeating: 0, count: RowPipeline.batchCount)
    }

    deinit {
        bytes.deallocate()
        places.deinitialize(count: RowPipeline.batchRows * RowPipeline.batchCount)
        places.deallocate()
        rowsIn.deallocate()
    }

    /// Runs the decoder on its own thread and hands every row to `consume`
    /// (its bytes and where it goes) on this one. Throws the decoder's error
    /// once the rows before it are consumed. Returns only after the producer
    /// has let go of the source, which the caller then closes.
    ///
    /// `idle` is called whenever no rows are ready, before waiting for
    /// them: it does a little other work (a row of the art) and says
    /// whether it did, or returns false to wait.
    func run(
        _ consume: (UnsafePointer<UInt8>, RowPlacement) -> Void,
        idle: () -> Bool = { false }
    ) throws(DecodeError) {
        guard DetachedThread.start(stackSize: 1 << 20, { [self] in produce() }) else {
            // No thread to be had: the rows on this one, in order.
            return try serially(consume)
        }
        defer {
            condition.lock()
            abandoned = true
            condition.broadcast()
            while !producerDone { condition.wait() }
            condition.unlock()
        }
        while true {
            condition.lock()
            while consumed == produced && !producerDone {
                condition.unlock()
                let worked = idle()
                condition.lock()
                if !worked && consumed == produced && !producerDone { condition.wait() }
            }
            let ready = consumed < produced
            let error = failure
            condition.unlock()
            guard ready else {
                if let error { throw error }
                return
            }
            let slot = consumed % RowPipeline.batchCount
            let first = slot * RowPipeline.batchRows
            for k in 0..<rowsIn[slot] { consume(bytes + (first + k) * rowBytes, places[first + k]) }
            condition.lock()
            consumed += 1
            condition.signal()
            condition.unlock()
        }
    }

    private func serially(_ consume: (UnsafePointer<UInt8>, RowPlacement) -> Void) throws(DecodeError) {
        for _ in 0..<source.rowCount { consume(bytes, try source.nextRow(bytes)) }
    }

    /// The producer: fills batches in ring order until the rows run out, an
    /// error stops it, or the consumer leaves.
    private func produce() {
        var delivered = 0
        let total = source.rowCount
        defer {
            condition.lock()
            producerDone = true
            condition.broadcast()
            condition.unlock()
        }
        while delivered < total {
            condition.lock()
            while produced - consumed == RowPipeline.batchCount && !abandoned { condition.wait() }
            let stop = abandoned
            let slot = produced % RowPipeline.batchCount
            condition.unlock()
            if stop { return }
            let first = slot * RowPipeline.batchRows
            let count = min(RowPipeline.batchRows, total - delivered)
            var error: DecodeError?
            var made = 0
            while made < count {
                do {
                    places[first + made] = try source.nextRow(bytes + (first + made) * rowBytes)
                    made += 1
                } catch let failed {
                    error = failed
                    break
                }
            }
            rowsIn[slot] = made
            delivered += made
            condition.lock()
            produced += 1
            failure = error
            condition.signal()
            condition.unlock()
            if error != nil { return }
        }
    }
}
