import BlockArt

/// What works for the screen besides the terminal: the loader and the
/// decoders on their threads, the pipe they wake the key loop with, how
/// they decode, and the log. None of it is the screen's state: that is
/// `ScreenState`.
struct ScreenServices {
    /// Display Image and decoding, on a thread of its own.
    let loader: Loader
    /// Zoomed views: their decodes, newest request first.
    var zoomed: ZoomedViews
    /// The gallery's thumbnails, decoded as the tiles come on screen.
    let thumbnails: ThumbnailDecoder
    /// Written by the loader and the decoders when they have something.
    let wakeups: WakePipe
    /// How pictures are decoded: the loader's, the zoom's and the frames'.
    let decodeContext: DecodeContext
    /// Diagnostics (`--log-file`).
    let log: Log

    /// The services for `options`, waking the key loop through `wakeups`.
    init(_ options: ScreenApp.Options, wakeups: WakePipe) {
        let context = DecodeContext(
            background: options.background,
            samples: Renderer.samples(options.symbols),
            wakeups: wakeups
        )
        self.wakeups = wakeups
        decodeContext = context
        loader = Loader(context, controller: options.controller)
        zoomed = ZoomedViews(decoder: ViewDecoder(context))
        thumbnails = ThumbnailDecoder(context)
        log = Log(path: options.logPath)
    }
}
