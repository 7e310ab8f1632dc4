import type { ProductRecord, ProductView } from '@catalog/store';
import type {
  BrandSearchJob,
  BrandSearchOutcome,
  EnginePage,
  ProductSearchJob,
} from '../../engine/search-engine.ts';
import type { FailureKind } from './engine-failures.ts';

export interface WorkerSetup {
  databasePath: string;
}

export type WorkerRequest =
  | { id: number; kind: 'products'; job: ProductSearchJob }
  | { id: number; kind: 'product-documents'; job: ProductSearchJob; view: ProductView }
  | { id: number; kind: 'brands'; job: BrandSearchJob };

export type WorkerReply =
  | { id: number; ok: true; result: EnginePage<ProductRecord> | EnginePage<string> | BrandSearchOutcome }
  | { id: number; ok: false; kind: FailureKind; message: string };

export type JobResult<R extends WorkerRequest> = R extends { kind: 'products' }
  ? EnginePage<ProductRecord>
  : R extends { kind: 'product-documents' }
    ? EnginePage<string>
    : BrandSearchOutcome;
