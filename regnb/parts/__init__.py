"""The engine's parts. `regnb.Engine` holds one of each and hands every public method to one.

    CorpusIndex        the corpus folder, its catalog and its index's store (built on first use)
    Embedder           texts to vectors with the corpus's encoder; queries through a cache
    CorpusStatistics   how common words are, and each dataset's boilerplate sentences
    Searches           v3 searches checked against the catalog and run; legacy BM25 searches
    Reader             the pages of a document, v3 and legacy
    Agents             which research agent answers the engine's conversations
    Watches            the watchlists saved under REGNB_HOME, read against the corpus
    Lazy               a part made on first use

The conversations are `regnb.conversations.LocalConversations`, made on first use, so that
`import regnb` opens no database and starts no thread. Each part is in a private module
(`regnb.parts._searches`...): the parts are the engine's implementation, not an API.
"""

__all__: list[str] = []
