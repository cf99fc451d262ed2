import { useBrand } from '../lib/brand';

export interface BrandLogoProps {
  height?: number;
}

/** The brand's logo; its alternative text is the brand name. */
export function BrandLogo({ height = 40 }: BrandLogoProps) {
  const { brand, name, logoUrl } = useBrand();
  return (
    <img src={logoUrl} alt={name} data-brand-logo={brand} className="hy-logo" style={{ height }} />
  );
}
