import type { ProductView } from '../../../model/external-product.ts';
import type { FailureKind } from './engine-failures.ts';
import type { BrandSearchJob, BrandSearchOutcome } from './run-brand-search.ts';
import type { ProductDocumentOutcome, ProductSearchJob, ProductSearchOutcome } from './run-product-search.ts';

export interface WorkerSetup {
  databasePath: string;
}

export type WorkerRequest =
  | { id: number; kind: 'products'; job: ProductSearchJob }
  | { id: number; kind: 'product-documents'; job: ProductSearchJob; view: ProductView }
  | { id: number; kind: 'brands'; job: BrandSearchJob };

export type WorkerReply =
  | { id: number; ok: true; result: ProductSearchOutcome | ProductDocumentOutcome | BrandSearchOutcome }
  | { id: number; ok: false; kind: FailureKind; message: string };

export type JobResult<R extends WorkerRequest> = R extends { kind: 'products' }
  ? ProductSearchOutcome
  : R extends { kind: 'product-documents' }
    ? ProductDocumentOutcome
    : BrandSearchOutcome;
