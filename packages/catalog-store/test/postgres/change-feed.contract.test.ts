import { changeFeedContract } from '../contract/change-feed.contract.ts';
import { postgresStore } from '../support/postgres-factory.ts';

changeFeedContract(postgresStore);
