// CRoaring through the `roaring` package, a CommonJS addon: its classes come off the default export.
import roaring from 'roaring';

export const { RoaringBitmap32 } = roaring;
export type RoaringBitmap32 = InstanceType<typeof roaring.RoaringBitmap32>;
