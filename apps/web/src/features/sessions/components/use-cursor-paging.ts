// The keyset paging hook is shared (components/data-table): the audit screen pages the same way.
export { PAGE_SIZES, useCursorPaging } from '../../../components/data-table/use-cursor-paging';
