/// The certificates a transfer trusts when the environment names them, read
/// as the curl program reads them: `CURL_CA_BUNDLE`, else `SSL_CERT_DIR`
/// and `SSL_CERT_FILE`. A network behind its own authority (a company's TLS
/// proxy) is then reached as curl reaches it; otherwise the system's store.
public struct TrustedCertificates: Sendable, Equatable {
    /// A file of PEM certificates.
    public var file: String?
    /// A directory of hashed certificate names.
    public var directory: String?

    /// What `environment` names; nil for a variable unset or empty.
    public init(environment: [String: String]) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let bundle = value("CURL_CA_BUNDLE") {
            file = bundle
        } else {
            file = value("SSL_CERT_FILE")
            directory = value("SSL_CERT_DIR")
        }
    }
}
