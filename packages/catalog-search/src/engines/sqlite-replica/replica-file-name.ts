/** The replica's file under each API instance's DATA_DIR. */
export const SEARCH_REPLICA_FILE_NAME = 'search-replica.sqlite';
