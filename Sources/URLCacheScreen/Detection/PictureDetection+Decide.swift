import BlockArt
import Glibc
import URLCacheSupport

/// The two ways a decision is reached: a terminal the environment names
/// (inside tmux, with what tmux says of its client), or one that is asked.
extension PictureDetection {
    /// The colours the art gets: `--colors`, else direct colour where the
    /// terminal draws it (unless NO_COLOR), else what the environment and
    /// terminfo say.
    struct ColorRule {
        let requested: ColorMode?
        let noColor: Bool
        let fallback: ColorMode

        func colors(_ truecolor: Bool) -> ColorMode {
            if let requested { return requested }
            return truecolor && !noColor ? .truecolor : fallback
        }
    }

    /// Sixel's colour registers: what the terminal said, within the encoder's bound.
    static func registers(_ replies: TerminalReplies?) -> Int {
        min(replies?.sixelRegisters ?? SixelEncoder.defaultRegisters, SixelEncoder.maxRegisters)
    }

    /// A terminal the environment names; inside tmux, what tmux says of
    /// its client decides the colours and the pictures.
    static func decide(
        _ known: TerminalIdentity.Known,
        environment env: [String: String],
        replies: TerminalReplies?,
        tmux: TmuxClient?,
        colors: ColorRule,
        terminfo: TerminfoDatabase
    ) -> Detection {
        var reasons = ["environment: \(describe(env)) → \(known.name)"]
        let tmuxDirect = tmux?.truecolor(terminfo: terminfo)
        if let tmux {
            reasons.append(
                "tmux client: TERM=\(tmux.termName), XTVERSION \(tmux.termType.isEmpty ? "none" : tmux.termType), "
                    + "features \(tmux.features.sorted().joined(separator: ",")), "
                    + (tmuxDirect == true ? "passes direct colour" : "maps colours to 256")
            )
        }
        if let sixel = replies?.sixelRegisters { reasons.append("replies: XTSMGRAPHICS \(sixel) sixel registers") }
        var chosen = colors.colors(known.truecolor || tmuxDirect == true)
        // tmux's word on its client outweighs a COLORTERM leaked from the
        // terminal it was started in: without RGB it maps colours to 256.
        if tmuxDirect == false, colors.requested == nil { chosen = ColorDetection.capped(chosen, at: .palette256) }
        if let cap = known.colorCap, colors.requested == nil { chosen = ColorDetection.capped(chosen, at: cap) }
        var detection = Detection(
            format: known.format,
            colors: chosen,
            symbols: known.symbols,
            registers: registers(replies),
            cellPixels: replies?.cellPixels,
            terminal: known.name,
            reasons: reasons
        )
        if known.name == "tmux", !(env["TMUX"] ?? "").isEmpty {
            let pictures = TmuxPictures(
                placeholders: tmux.map {
                    TerminalIdentity.drawsPlaceholders(termType: $0.termType, termName: $0.termName)
                } ?? false,
                sixel: tmux?.features.contains("sixel") == true && replies?.sixel == true
            )
            detection.tmux = pictures
            detection.format = pictures.format
            detection.reasons.append(
                "tmux pictures: "
                    + (pictures.sixel
                        ? "tmux draws sixel (client feature sixel)"
                        : pictures.placeholders
                            ? "the terminal outside draws kitty's Unicode placeholders, sent through the passthrough"
                            : "none (no sixel in tmux, no placeholders outside)")
            )
        }
        return detection
    }

    /// A terminal the environment does not name: what it answered decides.
    static func decideAsked(
        environment env: [String: String],
        replies: TerminalReplies?,
        colors: ColorRule
    ) -> Detection {
        var reasons = ["environment: \(describe(env)) → not decided, asked the terminal"]
        // xterm has had direct colour since patch 331 and sets XTERM_VERSION:
        // that holds whether or not it answers.
        let xtermPatch = env["XTERM_VERSION"].flatMap(TerminalIdentity.xtermPatch)
        guard let replies, replies.complete else {
            reasons.append(
                replies == nil ? "replies: none (no terminal to ask)" : "replies: no answer to DA1 before the deadline"
            )
            return Detection(
                format: .symbols,
                colors: colors.colors(TerminalIdentity.xtermDrawsDirectColor(patch: xtermPatch)),
                symbols: .blocks,
                registers: SixelEncoder.defaultRegisters,
                cellPixels: nil,
                terminal: xtermPatch != nil ? "xterm" : "unknown",
                reasons: reasons
            )
        }
        let answered = TerminalIdentity.answered(replies)
        let rgb =
            replies.capabilities["RGB"] != nil
            || replies.capabilities["colors"].flatMap(Int.init).map { $0 >= 1 << 24 } == true
        let direct = TerminalIdentity.renditionKeepsDirectColor(replies.rendition)
        let truecolor = rgb || direct || answered.truecolor || TerminalIdentity.xtermDrawsDirectColor(patch: xtermPatch)
        reasons.append(describe(replies, answered: answered) + (xtermPatch.map { ", XTERM_VERSION patch \($0)" } ?? ""))
        let sixel = replies.sixel && !TerminalIdentity.claimsSixelRegardless(replies.version)
        let kitty = replies.kittyGraphics && !TerminalIdentity.kittyRefusesCompression(replies.version)
        let format: PictureFormat =
            TerminalIdentity.drawsITermImages(replies.version) ? .iterm : kitty ? .kitty : (sixel ? .sixel : .symbols)
        let name = replies.version == nil && xtermPatch != nil ? "xterm" : answered.name
        return Detection(
            format: format,
            colors: colors.colors(truecolor),
            symbols: kitty ? .sextants : .blocks,
            registers: registers(replies),
            cellPixels: replies.cellPixels,
            terminal: name,
            reasons: reasons
        )
    }
}
