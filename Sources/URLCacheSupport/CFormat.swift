import Glibc

/// printf's formatting, for the few numbers shown with a fixed count of
/// decimals ("1.5 MiB", "16.42 ms").
///
/// `String(format:)` did this before; it lives in swift-corelibs-foundation
/// (see `DetachedThread` for why the program does without it). Its
/// conversions are the C library's, so the text is the same.
package enum CFormat {
    /// `format` with `arguments`, as vsnprintf writes them.
    package static func string(_ format: String, _ arguments: any CVarArg...) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        var needed = withVaList(arguments) { Int(vsnprintf(&buffer, buffer.count, format, $0)) }
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: needed + 1)
            needed = withVaList(arguments) { Int(vsnprintf(&buffer, buffer.count, format, $0)) }
        }
        return String(decoding: buffer.prefix(max(0, needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
