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


def test_signing_out_revokes_the_users_refresh_tokens_and_a_user_gone_is_no_error():
    """DELETE /me calls AdminUserGlobalSignOut before AdminDeleteUser: every refresh token of the
    player stops working (the order: tests/services/test_player_data.py)."""
    with mock_aws():
        cognito = boto3.client("cognito-idp")
        pool = cognito.create_user_pool(PoolName="players")["UserPool"]["Id"]
        client = cognito.create_user_pool_client(
            UserPoolId=pool, ClientName="web", ExplicitAuthFlows=["ALLOW_ADMIN_USER_PASSWORD_AUTH"]
        )["UserPoolClient"]["ClientId"]
        cognito.admin_create_user(UserPoolId=pool, Username="ann", TemporaryPassword="Temp-pass-123")
        cognito.admin_set_user_password(
            UserPoolId=pool, Username="ann", Password="Pass-word-123", Permanent=True
        )
        tokens = cognito.admin_initiate_auth(
            UserPoolId=pool,
            ClientId=client,
            AuthFlow="ADMIN_USER_PASSWORD_AUTH",
            AuthParameters={"USERNAME": "ann", "PASSWORD": "Pass-word-123"},
        )["AuthenticationResult"]
        accounts = CognitoAccounts(pool)
        accounts.sign_out("ann")
        refused = None
        try:
            cognito.admin_initiate_auth(
                UserPoolId=pool,
                ClientId=client,
                AuthFlow="REFRESH_TOKEN_AUTH",
                AuthParameters={"REFRESH_TOKEN": tokens["RefreshToken"]},
            )
        except cognito.exceptions.NotAuthorizedException as error:
            refused = error
        assert refused is not None
        accounts.delete_account("ann")
        accounts.sign_out("ann")  # a retried erasure, the user gone
