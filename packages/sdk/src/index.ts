// The resource types integrators program against come straight from the contract document.
export type { CatalogApi } from '@catalog/contracts';
