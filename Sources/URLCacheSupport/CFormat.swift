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
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else { return String(cString: buffer) }
            return withVaList(arguments) { again in
                buffer = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&buffer, buffer.count, format, again)
                return String(cString: buffer)
            }
        }
    }
}
