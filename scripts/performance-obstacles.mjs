// What stands in the way of a goal the report shows as not met (issue 14: "the figure reached and what
// stands in the way"). Written from profiles and plans taken on the 1M-product catalogues; each entry
// names the mechanism, not a figure of one run (the figures are in the section above it). A goal
// without an entry here that is not met shows in the report as having none written: add one.

/** part → [{ goal: RegExp on the goal's text, obstacle }] */
export const OBSTACLES = {
  api: [
    {
      goal: /^every query shape class p99.*\(search engine sqlite-fts5\)/,
      obstacle:
        'Each query is answered from SQLite’s indexes inside one read snapshot, and three kinds of shape must touch a large part of the catalogue whatever the plan: a 1–2-character prefix stands for hundreds of index terms, which FTS5 merges into one list of up to every product before the first row; `includeAggregations=true` counts the whole match set (decisions.md), up to 1M rows, on every request; and a sort on another column than relevance under a filter its index does not hold (`updatedAfter` with another sort, `displayOnWeb` for a bound channel) tests row after row until `from + size` rows have passed, up to 10,000 deep. With fewer than 100 runs in a class its p99 is its slowest run, so one such query fails every class it belongs to. What meets them is a structure precomputed for those shapes, not another SQL plan: the bitmap engine (`SEARCH_ENGINE=bitmap`, issue 28), whose own figures are in the run made with `BENCH_SEARCH_ENGINE=bitmap`.',
    },
    {
      goal: /^Zipf mix.*\(search engine sqlite-fts5\)/,
      obstacle:
        'The mix draws from the same generator, so its tail holds the shapes of the goal above: at c32, queries of a quarter of a second to two seconds hold the two search workers (one per core) while the baseline returns every body at once; the page cache serves only the repeated head of the Zipf curve. It follows the shape goal.',
    },
    {
      goal: /^API RSS.*\(search engine sqlite-fts5\)/,
      obstacle:
        'Three V8 isolates (the main thread and two search workers, their young generations now held small), each worker’s SQLite page cache and the search page cache (`SEARCH_PAGE_CACHE_MB`), and the mapped database. The peak under the mix varies by some 100 MB from run to run with what the slow shapes allocate.',
    },
  ],
  sync: [
    {
      goal: /full pass to SQLite ≥/,
      obstacle:
        'A pass runs at the pace of the slower of two things that overlap: the server’s next page (one request at a time, spec 8: the floor) and the sink’s write of the page before it. The SQLite sink (each product’s JSON text upserted by its text id, in the runner’s one thread beside the parsing of the responses) runs at 0.5–0.6× the floor in every run, so the goal holds where the floor is above some 35,000 products/s (24,810/s over a 40,960/s floor in the report before this one) and not on a slower machine or a busier server; here the floor was 31,130/s. The memory settings that hold the runner under 200 MB cost some of it: serving every allocation of 128 KiB or more from its own mapping (each response and output buffer is mapped and unmapped) took this machine from 0.56× to 0.51× the floor (0.98× to 0.85× for NDJSON). Writing in a worker thread, so that the parsing and the writing use two cores, is the next step.',
    },
    {
      goal: /peak RSS ≤/,
      obstacle:
        'What the peak is made of (from /proc/<pid>/smaps and V8’s heap statistics during a 1M pass): the Node binary’s mapped code, about 58 MB; glibc’s heap holding the TLS and HTTP client’s and the sink’s buffers, 70–100 MB and varying from run to run with fragmentation; the V8 heap, 30–50 MB with the young generation held to 8 MB (the runner re-executes itself with `--max-semi-space-size=4` and glibc’s mmap threshold at 128 KiB; 365 MB before); and the set of ids the pass has seen (16–43 bytes a product, to count a product served twice once, spec 4.4 step 6), which grows with the catalogue. Exact counting in fixed memory would need that set on disk.',
    },
  ],
  load: [
    {
      goal: /≥ 10,000 products\/s/,
      obstacle:
        'Where an empty-catalogue load of 1M products spent its 163 s (phases timed inside loadEmptyCatalogue on the machine of the load part, 2026-11-26): the rows about 49 s (validation against the contract’s schema included), the secondary indexes 19 s, the full-text index 11 s, facet counts and the change feed 10 s, the stored search documents 50 s (each product read back with its relations and rendered to its external JSON), the commit and WAL checkpoint 25 s (every page is written twice, to the WAL and then into the database file). The two largest are the next steps: render each document from its input during the insert instead of reading it back, and load an empty catalogue under a rollback journal so that its pages are written once.',
    },
  ],
};

/** The obstacle written for `goal` of `part`, or null. */
export function obstacleFor(part, goal) {
  return OBSTACLES[part]?.find((entry) => entry.goal.test(goal))?.obstacle ?? null;
}
