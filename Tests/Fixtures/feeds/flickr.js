jsonFlickrFeed({
		"title": "Uploads from everyone",
		"link": "https:\/\/www.flickr.com\/photos\/",
		"description": "",
		"modified": "2026-11-23T08:12:40Z",
		"generator": "https:\/\/www.flickr.com",
		"items": [
	   {
			"title": "It\'s a fern, frozen",
			"link": "https:\/\/www.flickr.com\/photos\/example\/5300000001\/",
			"media": {"m":"{{BASE}}\/flickr\/5300000001_ab12cd34ef_m.jpg"},
			"date_taken": "2026-11-22T07:03:11-08:00",
			"description": " <p><a href=\"https:\/\/www.flickr.com\/people\/example\/\">example<\/a> posted a photo:<\/p> <p>Frost on a fern \\ at dawn.<\/p> ",
			"published": "2026-11-23T08:12:40Z",
			"author": "nobody@flickr.com (\"example\")",
			"author_id": "00000000@N00",
			"tags": "frost fern"
	   }
        ]
})
