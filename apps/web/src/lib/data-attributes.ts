/**
 * `data-*` attributes (test ids…) for the `slotProps` of a MUI component. JSX accepts them on any
 * element, but an object literal typed as a slot's props may name only that element's own props;
 * this type carries them there without a cast.
 */
export type DataAttributes = Record<`data-${string}`, string>;

export function dataAttributes(attributes: DataAttributes): DataAttributes {
  return attributes;
}
