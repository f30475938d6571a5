// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title LoyaltyCollectible
/// @notice Reference ERC-721 reward collectible, minted by the platform relayer (the owner).
contract LoyaltyCollectible is ERC721, Ownable {
    uint256 private _lastTokenId;

    /// @param owner_ The platform relayer, the only account allowed to mint.
    constructor(string memory name_, string memory symbol_, address owner_)
        ERC721(name_, symbol_)
        Ownable(owner_)
    {}

    /// @notice Mints the next id (1, 2, 3, ...) so ids are predictable from the mint count.
    /// @dev _mint, not _safeMint: recipients are custodial EOAs and a receiver callback would let
    ///      a recipient contract make the relayer's transaction revert.
    function mint(address to) external onlyOwner returns (uint256 tokenId) {
        tokenId = ++_lastTokenId;
        _mint(to, tokenId);
    }
}
