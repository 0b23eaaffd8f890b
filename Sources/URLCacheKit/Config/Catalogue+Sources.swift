/// The catalogue's entries: each address as its publisher documents it,
/// with its terms in a word (docs/url-list.md has the whole table).
extension Catalogue {
    /// One picture a day, each named in a feed.
    static let days: [CatalogueSource] = [
        CatalogueSource(
            name: "bing",
            title: "Bing",
            kind: .daily,
            address: "https://www.bing.com/HPImageArchive.aspx?format=js&idx=0&n=1&mkt={market}",
            feed: FeedSpec(select: "images.0.url"),
            key: "Its market follows the locale (LC_ALL, LC_MESSAGES, LANG).",
            terms: "Microsoft: wallpaper use only"
        ),
        // NASA moved APOD to science.nasa.gov on 29 September 2026: the
        // api.nasa.gov address answers a placeholder and is to close on 1
        // December 2026 (reported in ellanan/apod-api#11 and in the READMEs
        // of the wallpaper tools that moved). The new one needs no key; its
        // newest day comes first.
        CatalogueSource(
            name: "apod",
            title: "Astronomy Picture of the Day",
            kind: .daily,
            address: "https://science.nasa.gov/wp-json/wp/v2/apod-basic?per_page=1",
            feed: FeedSpec(),
            terms: "each picture's credit: NASA's public domain or the photographer's"
        ),
        CatalogueSource(
            name: "apod-api",
            title: "Astronomy Picture of the Day (api.nasa.gov)",
            kind: .daily,
            address: "https://api.nasa.gov/planetary/apod?api_key={key}&thumbs=true",
            feed: FeedSpec(),
            key:
                "NASA_API_KEY, else DEMO_KEY (30 requests an hour, 50 a day per address); reported to close on 1 December 2026.",
            terms: "each picture's credit"
        ),
        CatalogueSource(
            name: "wikimedia",
            title: "Wikimedia Commons picture of the day",
            kind: .daily,
            address:
                "https://commons.wikimedia.org/w/api.php?action=featuredfeed&feed=potd&feedformat=rss&language=en",
            feed: FeedSpec(),
            terms: "free licences, each picture its own (mostly CC BY-SA)"
        ),
        CatalogueSource(
            name: "nasa-iotd",
            title: "NASA Image of the Day",
            kind: .daily,
            address: "https://www.nasa.gov/feeds/iotd-feed/",
            feed: FeedSpec(),
            terms: "NASA: public domain, unless credited otherwise"
        ),
        CatalogueSource(
            name: "earth-observatory",
            title: "NASA Earth Observatory Image of the Day",
            kind: .daily,
            address: "https://earthobservatory.nasa.gov/feeds/image-of-the-day.rss",
            feed: FeedSpec(),
            terms: "NASA: public domain"
        ),
        CatalogueSource(
            name: "epod",
            title: "Earth Science Picture of the Day",
            kind: .daily,
            // Its Atom feed is cut short; the blog's page names the picture.
            address: "https://epod.usra.edu/blog/",
            feed: FeedSpec(),
            terms: "the photographer's copyright: view, with credit"
        ),
        CatalogueSource(
            name: "eso-potw",
            title: "ESO Picture of the Week",
            kind: .daily,
            address: "https://www.eso.org/public/images/potw/feed/",
            feed: FeedSpec(),
            terms: "CC BY 4.0"
        ),
        CatalogueSource(
            name: "esa-webb",
            title: "ESA/Webb Picture of the Month",
            kind: .daily,
            address: "https://esawebb.org/images/potm/feed/",
            feed: FeedSpec(),
            terms: "CC BY 4.0"
        ),
        CatalogueSource(
            name: "wikipedia",
            title: "Wikipedia picture of the day",
            kind: .daily,
            address: "https://en.wikipedia.org/w/api.php?action=featuredfeed&feed=potd&feedformat=atom",
            feed: FeedSpec(),
            terms: "free licences, each picture its own"
        ),
    ]

    /// Live images: one address, redrawn every few minutes.
    static let live: [CatalogueSource] = [
        CatalogueSource(
            name: "goes-east",
            title: "GOES-East full disk (GeoColor)",
            kind: .live(minutes: 10),
            address: "https://cdn.star.nesdis.noaa.gov/GOES19/ABI/FD/GEOCOLOR/1808x1808.jpg",
            terms: "NOAA: public domain"
        ),
        CatalogueSource(
            name: "goes-west",
            title: "GOES-West full disk (GeoColor)",
            kind: .live(minutes: 10),
            address: "https://cdn.star.nesdis.noaa.gov/GOES18/ABI/FD/GEOCOLOR/1808x1808.jpg",
            terms: "NOAA: public domain"
        ),
        CatalogueSource(
            name: "himawari",
            title: "Himawari full disk (true colour)",
            kind: .live(minutes: 10),
            address:
                "https://rammb.cira.colostate.edu/ramsdis/online/images/latest_hi_res/himawari-8/full_disk_ahi_true_color.jpg",
            terms: "JMA data, by CIRA/RAMMB: credit them"
        ),
        CatalogueSource(
            name: "sdo",
            title: "The Sun (SDO AIA 193 Å)",
            kind: .live(minutes: 15),
            address: "https://sdo.gsfc.nasa.gov/assets/img/latest/latest_1024_0193.jpg",
            terms: "NASA: public domain"
        ),
        CatalogueSource(
            name: "sdo-hmi",
            title: "The Sun in visible light (SDO HMI)",
            kind: .live(minutes: 15),
            address: "https://sdo.gsfc.nasa.gov/assets/img/latest/latest_1024_HMIIC.jpg",
            terms: "NASA: public domain"
        ),
        CatalogueSource(
            name: "suvi",
            title: "The Sun (NOAA SUVI 195 Å)",
            kind: .live(minutes: 4),
            address: "https://services.swpc.noaa.gov/images/animations/suvi/primary/195/latest.png",
            terms: "NOAA: public domain"
        ),
    ]
}
