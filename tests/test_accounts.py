"""The account side of `DELETE /me` (shared/runtime/accounts.py): AdminDeleteUser on the deployment's user
pool, which is safe to call again once the user is gone."""

import boto3
from moto import mock_aws

from shared.runtime.accounts import CognitoAccounts, LocalAccounts


def test_deleting_an_account_removes_the_user_from_the_pool_and_again_is_no_error():
    with mock_aws():
        cognito = boto3.client("cognito-idp")
        pool = cognito.create_user_pool(PoolName="players")["UserPool"]["Id"]
        cognito.admin_create_user(UserPoolId=pool, Username="ann")
        accounts = CognitoAccounts(pool)
        accounts.delete_account("ann")
        accounts.delete_account("ann")  # a retried erasure
        assert cognito.list_users(UserPoolId=pool)["Users"] == []


def test_the_local_stand_in_records_each_account_once():
    accounts = LocalAccounts()
    accounts.delete_account("ann")
    accounts.delete_account("ann")
    assert accounts.deleted == ["ann"]
