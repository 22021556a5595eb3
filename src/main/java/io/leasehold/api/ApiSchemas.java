package io.leasehold.api;

/** Constants the API's description shares between its annotations. */
final class ApiSchemas {

    /** The grammar of an item id, as {@code core.ItemId} checks it (ItemIdSchemaTest keeps the two the same). */
    static final String ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$";

    /** The grammar of a schedule's name, as {@code core.FireTimeIds} checks it (OpenApiTest keeps the two the same). */
    static final String SCHEDULE_NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$";

    private ApiSchemas() {
    }
}
