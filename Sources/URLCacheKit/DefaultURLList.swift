/// The built-in URL list, a copy of Resources/URLCache.plist kept in the
/// binary so that `urlcache` finds it wherever the binary is copied (a
/// resource bundle is lost with the build folder). A test checks that the two
/// stay equal: edit Resources/URLCache.plist, then run Scripts/embed-default-list.
enum DefaultURLList {
    static let xml = #"""
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<array>
	<dict>
		<key>title</key>
		<string>GOES-East full disk (GeoColor)</string>
		<key>url</key>
		<string>https://cdn.star.nesdis.noaa.gov/GOES19/ABI/FD/GEOCOLOR/1808x1808.jpg</string>
	</dict>
	<dict>
		<key>title</key>
		<string>GOES-West full disk (GeoColor)</string>
		<key>url</key>
		<string>https://cdn.star.nesdis.noaa.gov/GOES18/ABI/FD/GEOCOLOR/1808x1808.jpg</string>
	</dict>
	<dict>
		<key>title</key>
		<string>The Sun at 171 Å (NASA SDO)</string>
		<key>url</key>
		<string>https://sdo.gsfc.nasa.gov/assets/img/latest/latest_1024_0171.jpg</string>
	</dict>
	<dict>
		<key>title</key>
		<string>The Sun at 195 Å (NOAA SWPC SUVI)</string>
		<key>url</key>
		<string>https://services.swpc.noaa.gov/images/animations/suvi/primary/195/latest.png</string>
	</dict>
</array>
</plist>
"""#
}
