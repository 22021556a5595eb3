#!/bin/sh
# The quick start's handler, run by the exec handler for each attempt at an item: the payload on stdin,
# the item's id, attempt number and epoch in LEASEHOLD_ITEM_ID, LEASEHOLD_ATTEMPT and LEASEHOLD_EPOCH.
# Exit 0: done. Exit 75: try again later (with backoff). Any other status: failed for good.
payload=$(cat)
case "$payload" in
  *'"not a number"'*)
    echo "total is not a number" >&2
    exit 1 ;;
esac
if [ "$LEASEHOLD_ATTEMPT" -lt 2 ]; then
  echo "payment service busy" >&2   # as a flaky remote service would be on the first try
  exit 75
fi
sleep 1   # the payment call
echo "charged order of $LEASEHOLD_ITEM_ID at epoch $LEASEHOLD_EPOCH"
