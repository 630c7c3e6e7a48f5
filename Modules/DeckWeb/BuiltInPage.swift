/// What `/` serves when the web app's folder has no `index.html`: a page that
/// says so and how to fix it — never an empty 200, and never the layout.
enum BuiltInPage {
    static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>deck</title>
    </head>
    <body>
    <h1>deck</h1>
    <p>This is deckd, the host of a button deck. The web app is not installed here:
    deckd found no <code>index.html</code> in its web folder.</p>
    <p>Install it with <code>make install</code> (it goes to PREFIX/share/deckd/web),
    or start deckd with <code>--web-root DIR</code> pointing at the repository's
    <code>Apps/web</code>.</p>
    </body>
    </html>

    """

    static let file = StaticFile(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8")
}
