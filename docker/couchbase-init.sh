#!/usr/bin/env bash
# One-shot Couchbase Server set-up for docbench: cluster with the data, index and query services,
# the bucket, and the primary index the YCSB scan (SQL++ ORDER BY meta().id) needs. Idempotent:
# a second run finds the cluster initialised and the bucket present and only makes sure of the index.
set -euo pipefail
cli=/opt/couchbase/bin/couchbase-cli
cbq=/opt/couchbase/bin/cbq
host="couchbase://${CB_HOST}"

if ! "$cli" server-list -c "$host" -u "$CB_USER" -p "$CB_PASSWORD" > /dev/null 2>&1; then
  "$cli" cluster-init -c "$host" \
    --cluster-username "$CB_USER" --cluster-password "$CB_PASSWORD" \
    --services data,index,query \
    --cluster-ramsize 1024 --cluster-index-ramsize 512 \
    --index-storage-setting default
fi

if ! "$cli" bucket-list -c "$host" -u "$CB_USER" -p "$CB_PASSWORD" | grep -qx "$CB_BUCKET"; then
  "$cli" bucket-create -c "$host" -u "$CB_USER" -p "$CB_PASSWORD" \
    --bucket "$CB_BUCKET" --bucket-type couchbase --bucket-ramsize 512 --wait
fi

# The query service may need a few seconds after the bucket appears.
for attempt in $(seq 1 30); do
  if "$cbq" -e "http://${CB_HOST}:8093" -u "$CB_USER" -p "$CB_PASSWORD" -q \
      -s "CREATE PRIMARY INDEX IF NOT EXISTS ON \`${CB_BUCKET}\`" | grep -q '"status": "success"'; then
    echo "couchbase-init: cluster, bucket ${CB_BUCKET} and its primary index are ready"
    exit 0
  fi
  sleep 2
done
echo "couchbase-init: the primary index could not be created" >&2
exit 1
