import { changeFeedContract } from '../contract/change-feed.contract.ts';
import { sqliteStore } from '../support/sqlite-factory.ts';

changeFeedContract(() => sqliteStore());
