import BlockArt
import Foundation
import URLCacheKit

/// Everything the screen shows, as plain data: the view draws it and the
/// event handling changes it, both without a terminal.
public struct ScreenState: Sendable {
    /// The URL list's images and which one is on screen.
    public var entries: [URLEntry]
    public var index = 0
    /// The status line: one of the original's three, or what went wrong.
    public var status = ""
    public var statusIsError = false
    /// The cached file's modification time: the last successful check.
    public var updated: Date?
    /// The decoded image, kept so that a resize re-renders without the file.
    public var image: DecodedImage?
    /// The image is the picture the binary carries, not a downloaded one.
    public var isBundled = false
    /// Show the picture in pixels where the terminal can (`f` switches to
    /// block art and back, so people can compare).
    public var showPixels = true
    /// A download in progress.
    public var loading: Loading?
    /// A box over the screen.
    public var overlay: Overlay?
    /// When a check by itself last failed (so it is not retried every tick).
    public var lastAutomaticFailure: Date?
    public var quitting = false

    public init(entries: [URLEntry]) {
        self.entries = entries
    }

    /// The entry on screen.
    public var entry: URLEntry { entries[index] }

    /// Empties the image and its fields: another entry, or a cleared cache.
    mutating func clearImage() {
        image = nil
        isBundled = false
        updated = nil
        status = ""
        statusIsError = false
    }

    /// What is under way.
    public struct Loading: Sendable, Equatable {
        public var index: Int
        public var started: Date
        public var progress: TransferProgress?
        public var automatic: Bool
    }

    /// A box over the screen.
    public enum Overlay: Equatable, Sendable {
        /// The original's URLCacheAlert: an error, closed with Enter.
        case alert(String)
        /// "Do you really want to clear the cache?"
        case confirmClear
        /// Every key.
        case help
    }
}
